"""The memory systems the engine reviews, one package each, every one implementing the store
contract (core/contract/); registry.py names them all."""
