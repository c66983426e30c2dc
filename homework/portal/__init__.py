"""The client's portal pages for homework; clients/ knows nothing of homework, so they live here.
Read-only pages answer HEAD too (require_safe); pages whose GET writes keep require_GET."""
