"""suji: a bilingual maths trainer built around the dice game Sūji de Asobo (すうじであそぼ)."""

__version__ = "0.1.0"
