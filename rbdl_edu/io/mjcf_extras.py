def read_extras(compiler):
    return {}
