from deathnote.cli.app import main

main()
