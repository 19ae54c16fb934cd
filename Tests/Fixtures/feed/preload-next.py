# An external preload policy: the first segment of the next item at the lowest rung, then nothing.
import json
import sys

for line in sys.stdin:
    request = json.loads(line)
    upcoming = request["upcoming"]
    if upcoming and upcoming[0]["segmentsRequested"] == 0:
        print(json.dumps({"item": upcoming[0]["item"], "variant": 0}), flush=True)
    else:
        print(json.dumps({"idle": True}), flush=True)
