"""ONNX runtimes for the models hallucheck ships (sentence embedder, span tagger); loaded on use."""

__all__: list[str] = []
