import nsdata.nothing_here
