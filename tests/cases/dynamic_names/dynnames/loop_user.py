from dynnames.loop import List3, beta

TOTAL = List3 + beta
