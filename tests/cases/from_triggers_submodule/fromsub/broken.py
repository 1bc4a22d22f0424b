# R5: a submodule whose own import fails; its error propagates to `from fromsub import broken`.
import fromsub_missing_dependency_xyz
