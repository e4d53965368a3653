"""Patience solvers and hints: pure searches over the game engines' rules (no I/O, no database).

* :mod:`spielcenter.solvers.cruel` — decides whether a Cruel position can be won;
* :mod:`spielcenter.solvers.hints` — the hint button: a good next move for Cruel and Crazy Quilt.
"""
