# openai's removed-API module: names bound through a module-level alias of locals()
SYMBOLS = ["Edit", "File"]
__all__ = SYMBOLS

__locals = locals()
for symbol in SYMBOLS:
    __locals[symbol] = symbol.lower()
