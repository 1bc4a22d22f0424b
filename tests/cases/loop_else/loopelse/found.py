KINDS = ["Name", "String", "Keyword", "Number"]
for i, kind in enumerate(KINDS):
    if kind == "Keyword":
        break
else:
    raise RuntimeError("Keyword not found")  # a guard: not reached, the loop breaks
KEYWORD_AT = i
