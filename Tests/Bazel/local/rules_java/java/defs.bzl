# A stand-in for rules_java (Tests/Bazel/WORKSPACE): the native rules, under the names Bazel's own tools load.
def java_binary(**kwargs): native.java_binary(**kwargs)
def java_import(**kwargs): native.java_import(**kwargs)
def java_library(**kwargs): native.java_library(**kwargs)
def java_proto_library(**kwargs): native.java_proto_library(**kwargs)
def java_runtime(**kwargs): native.java_runtime(**kwargs)
def java_toolchain(**kwargs): native.java_toolchain(**kwargs)
