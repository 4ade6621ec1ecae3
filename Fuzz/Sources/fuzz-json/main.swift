import FuzzMain

runFuzzer(fuzz)
