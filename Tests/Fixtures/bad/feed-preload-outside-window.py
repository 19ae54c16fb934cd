# A preload policy that always asks for an item two places ahead, outside a recommendation window of 1.
import json
import sys

for line in sys.stdin:
    request = json.loads(line)
    print(json.dumps({"item": request["current"]["item"] + 2}), flush=True)
