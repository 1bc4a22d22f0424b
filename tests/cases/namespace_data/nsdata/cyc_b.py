from nsdata.cyc_a import A

B = 2
