import sys

from spielcenter.cli import main

sys.exit(main())
