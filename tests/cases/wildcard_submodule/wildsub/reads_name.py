import wildsub.core

A = wildsub.core.PART_A
