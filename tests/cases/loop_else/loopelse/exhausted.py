for kind in ["Name", "String"]:
    if kind == "Keyword":
        break
else:
    raise RuntimeError("Keyword not found")  # reached: nothing matches
