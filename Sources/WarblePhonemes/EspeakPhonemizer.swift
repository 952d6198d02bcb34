import WarbleText
