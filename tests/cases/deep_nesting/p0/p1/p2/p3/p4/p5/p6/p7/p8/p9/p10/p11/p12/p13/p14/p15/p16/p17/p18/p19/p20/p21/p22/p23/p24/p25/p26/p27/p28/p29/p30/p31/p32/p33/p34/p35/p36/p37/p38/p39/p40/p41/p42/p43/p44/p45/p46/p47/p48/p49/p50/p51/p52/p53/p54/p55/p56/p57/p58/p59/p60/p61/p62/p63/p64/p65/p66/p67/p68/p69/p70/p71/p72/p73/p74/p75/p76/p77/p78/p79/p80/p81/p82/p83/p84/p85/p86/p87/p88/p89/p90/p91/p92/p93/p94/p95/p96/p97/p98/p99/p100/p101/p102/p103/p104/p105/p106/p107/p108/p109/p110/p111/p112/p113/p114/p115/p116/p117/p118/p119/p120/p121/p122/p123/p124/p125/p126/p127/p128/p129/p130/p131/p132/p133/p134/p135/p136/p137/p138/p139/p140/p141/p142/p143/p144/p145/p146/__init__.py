from . import p147
