print("warble")
