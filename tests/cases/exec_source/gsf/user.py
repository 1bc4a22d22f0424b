import gsf.rpc

R = gsf.rpc.RRef
