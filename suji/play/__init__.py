"""The games people play, standing on the rules and the solver: rounds, turns, re-rolls and scores as frozen
values and pure moves. Storage (the database) and pages stay in the web layer.
"""
