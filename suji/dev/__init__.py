"""Developer tools, not part of the trainer: benchmarks (`bench`), the load test (`loadtest`) and the
translation catalogs (`catalogs`, wrapping pybabel). The command line reaches them as `suji bench`,
`suji loadtest` and `suji i18n`; nothing in the library imports them.
"""
