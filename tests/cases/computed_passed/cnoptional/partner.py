# R27: the other half of user_cycle's cycle.
import cnoptional.user_cycle as uc

VALUE = uc.LATER
