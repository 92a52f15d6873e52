// Intentionally empty: the target only declares the runtime hook (include/CEnqueueHook.h).
