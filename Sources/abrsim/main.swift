import ABRSim
print("abrsim")
