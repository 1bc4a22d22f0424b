Y = "c"
