# R2: attribute access through the parent fails mid-cycle even though sub2.f is already bound.
import subaccess.sub2

F = subaccess.sub2.f
