import gs.rpc

R = gs.rpc.RRef
