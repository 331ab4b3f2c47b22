"""Package discovery only (everything else is in pyproject.toml).

rules/, templates/ and db/ sit at the top of the repository but install as
pbem.rules, pbem.templates and pbem.db; pyproject.toml alone cannot combine
automatic discovery with that mapping.
"""
from setuptools import find_packages, setup

MAPPED = {"pbem.rules": "rules", "pbem.templates": "templates", "pbem.db": "db"}
packages = find_packages(include=["pbem", "pbem.*"])
for name, folder in MAPPED.items():
    packages += [name] + [f"{name}.{sub}" for sub in find_packages(folder)]

setup(packages=packages)
