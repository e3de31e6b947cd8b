"""The project's tools, in folders by concern (tools/README.md). The Python ones are modules of
this package, run from the checkout's root as `python3 -m tools.measure.strength ...`; what they
share is the package tools.zhtools."""
