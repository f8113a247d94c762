from simplemem_graph.cli import main

main()
