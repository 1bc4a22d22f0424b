for a in range(2):
    for b in range(2):
        break  # ends the inner loop only
else:
    raise RuntimeError("the outer loop never breaks")
