import nsdata.data.sub

WHERE = list(nsdata.data.sub.__path__)
