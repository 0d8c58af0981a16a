"""The rules core: each rule's arithmetic written once.

Small functions over integers and small arrays that compile under numba and run as plain
Python, with the codes they speak in.  The reference engine (:mod:`simulations.engine`), the
replay kernel, the PHH fast path and the job kernels (:mod:`simulations.models`) all call
these functions; none keeps a copy of its own.  This package imports nothing from the rest
of :mod:`simulations` above :mod:`simulations.cards` and :mod:`simulations.evaluators`.
"""
