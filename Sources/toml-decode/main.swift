import TOML
print("toml-decode")
