# stand-in for jax: only its lazy_loader
