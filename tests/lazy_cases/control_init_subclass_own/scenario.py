import lz_subown
print(lz_subown.Symbol.is_atom)
