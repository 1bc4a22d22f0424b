# imported first, it imports cyc, whose add_newdoc reads VALUE from this running module
import ndoc.cyc

VALUE = 2
