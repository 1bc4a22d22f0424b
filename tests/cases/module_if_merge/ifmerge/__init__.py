# after an `if` whose condition is not decided, a module global the branches left holding
# different values is not known: a later test of it is not decided by one branch's value
