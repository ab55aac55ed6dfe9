"""What every layer stands on: translation (`i18n`), the packaged data folders (`resources`) and the one error
base class (`errors`).
"""
