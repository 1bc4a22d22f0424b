from nsa.table import A
READ = A
