"""Printable sheets: worksheets with answer keys (`sheet` chooses the problems, `pdf` and `html` draw them) and
dice nets to cut out (`dice_nets`); `fonts` embeds the Japanese font both PDFs use.
"""
