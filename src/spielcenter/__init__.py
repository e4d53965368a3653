"""Spielcenter: patience and quilt games, played in the browser."""

__version__ = "0.1.0"
