"""ohcache."""
