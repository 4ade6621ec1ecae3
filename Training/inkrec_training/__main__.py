from inkrec_training.cli import main

main()
