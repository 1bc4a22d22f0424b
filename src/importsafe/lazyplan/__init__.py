"""PEP 810 lazy imports: which import statements can be made lazy without changing what the
program does, and the plan that makes them lazy (docs/lazy-migration.md).

scan       one module's source -> what its import does, as symbolic actions (pure)
interp     the abstract interpreter scan and the effect engine share (pure)
effects    actions of every module -> import-time effects, each with file:line (pure)
readers    where the state an effect changes is read (pure, over sources passed in)
verdict    per import statement: lazy-safe, or why it must stay eager (pure)
plan       the verified plan: re-simulation in every mode, the edits, the filter (pure)
apply      the use cases: plan, write (through fix.apply.write_patches)
render     the text and JSON reports
"""
