import sys

from torchlint import main

sys.exit(main())
