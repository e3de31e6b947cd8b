# `zhbot bench` searches fixed positions with fixed playouts, one thread and a fixed seed, so
# its node count and signature change exactly when the search's behaviour changes. This check
# holds them to the figures the README states (Stockfish's "Bench:" habit): a search change
# fails here until the README is updated with the new figures, on purpose.
#   cmake -DZHBOT=path/to/zhbot -DREADME=path/to/README.md -P bench_signature.cmake
file(READ "${README}" readme)
string(REGEX MATCH "Nodes searched: ([0-9]+)`, signature `([0-9a-f]+)`" found "${readme}")
if(NOT found)
  message(FATAL_ERROR "README.md states no `Nodes searched: N`, signature `S` for zhbot bench")
endif()
set(readme_nodes "${CMAKE_MATCH_1}")
set(readme_signature "${CMAKE_MATCH_2}")

execute_process(COMMAND "${ZHBOT}" bench OUTPUT_VARIABLE out ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "zhbot bench failed (${rc}):\n${out}\n${err}")
endif()
string(REGEX MATCH "Nodes searched: ([0-9]+)" _ "${out}")
set(nodes "${CMAKE_MATCH_1}")
string(REGEX MATCH "Signature: ([0-9a-f]+)" _ "${out}")
set(signature "${CMAKE_MATCH_1}")

if(NOT nodes STREQUAL readme_nodes OR NOT signature STREQUAL readme_signature)
  message(FATAL_ERROR
    "zhbot bench: Nodes searched ${nodes}, signature ${signature}; README.md says "
    "${readme_nodes}, ${readme_signature}. A change to the search's behaviour must update the "
    "README's figures (and say why in its commit).")
endif()
message(STATUS "zhbot bench: ${nodes} nodes, signature ${signature}, as the README says")
