"""The solver, standing on the rules: every formula a roll allows (`search`, checked against the plain
`listing`), hints (`hints`), re-roll advice (`advice`), certified problems for drills and worksheets
(`problems`) and the odds table of every roll (`odds`).
"""
