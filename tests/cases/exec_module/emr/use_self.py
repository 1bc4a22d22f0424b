from emr.load import load

load("impl_self")
