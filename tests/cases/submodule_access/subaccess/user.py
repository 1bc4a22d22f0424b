# R6: `pkg.sub.f` while pkg.sub runs and pkg is complete: 3.11+ "cannot access submodule 'sub'".
import subaccess.sub

F = subaccess.sub.f
