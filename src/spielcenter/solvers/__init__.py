"""Patience solvers and hints: pure searches over the game engines' rules (no I/O, no database).

* :mod:`spielcenter.solvers.cruel` — decides whether a Cruel position can be won;
* :mod:`spielcenter.solvers.crazy_quilt` — decides whether a Crazy Quilt deal can be won;
* :mod:`spielcenter.solvers.hints` — the hint button: a good next move for Cruel and Crazy Quilt.

The search modules run compiled to C when a build of the current sources exists
(:mod:`spielcenter.native`); the source is the same either way.
"""

from spielcenter import native

native.activate(__path__)
