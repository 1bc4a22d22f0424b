n = 0
while n < 10:
    n += 1
    if n == 3:
        break
else:
    assert 0, "n never reached 3"
