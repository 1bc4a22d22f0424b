from dynnames.tc_alias import VALUE

COPY = VALUE
